#define A(x) asm(x)
void g(){ asm goto("bra %l0;" :::: done); done: ; A("trap;");
#if 0
asm("x");
#else
asm("exit;");
#endif
}
