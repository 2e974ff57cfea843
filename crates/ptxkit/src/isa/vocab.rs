//! Fixed vocabulary of the module grammar: data types and state spaces
//! (spec chapter 5). Instruction modifiers live in the catalog; these are the
//! words declarations use, and typed views of the same spellings.

use serde::Serialize;

macro_rules! spelled_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $var,)* }

        /// Serialized as its spelling (`".u32"`).
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$var,)*];

            /// The spelling, with its leading dot.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s,)* }
            }

            /// Parse a spelling (with its leading dot).
            pub fn from_spelling(s: &str) -> Option<$name> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

spelled_enum! {
    /// A fundamental or packed data type (spec 5.2).
    ScalarType {
        /// 8-bit untyped.
        B8 = ".b8",
        /// 16-bit untyped.
        B16 = ".b16",
        /// 32-bit untyped.
        B32 = ".b32",
        /// 64-bit untyped.
        B64 = ".b64",
        /// 128-bit untyped.
        B128 = ".b128",
        /// 8-bit unsigned.
        U8 = ".u8",
        /// 16-bit unsigned.
        U16 = ".u16",
        /// 32-bit unsigned.
        U32 = ".u32",
        /// 64-bit unsigned.
        U64 = ".u64",
        /// 8-bit signed.
        S8 = ".s8",
        /// 16-bit signed.
        S16 = ".s16",
        /// 32-bit signed.
        S32 = ".s32",
        /// 64-bit signed.
        S64 = ".s64",
        /// IEEE half.
        F16 = ".f16",
        /// Two packed halves.
        F16x2 = ".f16x2",
        /// bfloat16.
        Bf16 = ".bf16",
        /// Two packed bfloat16.
        Bf16x2 = ".bf16x2",
        /// IEEE single.
        F32 = ".f32",
        /// IEEE double.
        F64 = ".f64",
        /// Predicate.
        Pred = ".pred",
        /// TensorFloat-32.
        Tf32 = ".tf32",
        /// FP8 e4m3.
        E4m3 = ".e4m3",
        /// FP8 e5m2.
        E5m2 = ".e5m2",
        /// Two packed FP8 e4m3.
        E4m3x2 = ".e4m3x2",
        /// Two packed FP8 e5m2.
        E5m2x2 = ".e5m2x2",
        /// FP6 e2m3.
        E2m3 = ".e2m3",
        /// FP6 e3m2.
        E3m2 = ".e3m2",
        /// FP4 e2m1.
        E2m1 = ".e2m1",
        /// Two packed FP6 e2m3.
        E2m3x2 = ".e2m3x2",
        /// Two packed FP6 e3m2.
        E3m2x2 = ".e3m2x2",
        /// Two packed FP4 e2m1.
        E2m1x2 = ".e2m1x2",
        /// Unsigned 8-bit exponent scale.
        Ue8m0 = ".ue8m0",
        /// Two packed ue8m0.
        Ue8m0x2 = ".ue8m0x2",
        /// Four packed FP8 e4m3.
        E4m3x4 = ".e4m3x4",
        /// Four packed FP8 e5m2.
        E5m2x4 = ".e5m2x4",
        /// Four packed FP6 e2m3 (a byte each).
        E2m3x4 = ".e2m3x4",
        /// Four packed FP6 e3m2 (a byte each).
        E3m2x4 = ".e3m2x4",
        /// Four FP4 e2m1 packed densely.
        E2m1x4 = ".e2m1x4",
        /// Four FP4 e2m1, each in the low half of a byte.
        E2m1p4x4 = ".e2m1p4x4",
        /// Four packed ue8m0.
        Ue8m0x4 = ".ue8m0x4",
        /// Two packed ue5m3.
        Ue5m3x2 = ".ue5m3x2",
        /// Two packed s2f6.
        S2f6x2 = ".s2f6x2",
        /// Two packed 16-bit unsigned.
        U16x2 = ".u16x2",
        /// Two packed 16-bit signed.
        S16x2 = ".s16x2",
        /// Four packed 8-bit unsigned.
        U8x4 = ".u8x4",
        /// Four packed 8-bit signed.
        S8x4 = ".s8x4",
        /// Two packed single.
        F32x2 = ".f32x2",
        /// Texture reference (opaque).
        TexRef = ".texref",
        /// Sampler reference (opaque).
        SamplerRef = ".samplerref",
        /// Surface reference (opaque).
        SurfRef = ".surfref",
    }
}

impl ScalarType {
    /// Size in bits (0 for predicates and opaque handles).
    pub fn bits(self) -> u32 {
        use ScalarType::*;
        match self {
            B8 | U8 | S8 | E4m3 | E5m2 | E2m3 | E3m2 | Ue8m0 => 8,
            E2m1 => 4,
            B16 | U16 | S16 | F16 | Bf16 | E4m3x2 | E5m2x2 | E2m3x2 | E3m2x2 | Ue8m0x2 | E2m1x4
            | Ue5m3x2 | S2f6x2 => 16,
            E2m1x2 => 8,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 | Tf32 | U16x2 | S16x2 | U8x4 | S8x4
            | E4m3x4 | E5m2x4 | E2m3x4 | E3m2x4 | E2m1p4x4 | Ue8m0x4 => 32,
            B64 | U64 | S64 | F64 | F32x2 => 64,
            B128 => 128,
            Pred | TexRef | SamplerRef | SurfRef => 0,
        }
    }

    /// Size in bytes of a variable of this type (predicates count as 1 byte,
    /// opaque handles as 8).
    pub fn size_bytes(self) -> u64 {
        match self {
            ScalarType::Pred => 1,
            ScalarType::TexRef | ScalarType::SamplerRef | ScalarType::SurfRef => 8,
            t => u64::from(t.bits().div_ceil(8)),
        }
    }

    /// Whether ptxas's grammar accepts the type in a declaration. Some
    /// instruction-only types (`.e4m3`, `.u16x2`) parse and are rejected by
    /// the checker; others (`.bf16`, `.tf32`, the FP4/FP6 types) are syntax
    /// errors in a declaration.
    pub fn declarable(self) -> bool {
        use ScalarType::*;
        !matches!(
            self,
            Bf16 | Bf16x2
                | Tf32
                | Ue8m0
                | Ue8m0x2
                | E2m1
                | E2m1x2
                | E2m3
                | E3m2
                | E2m3x2
                | E3m2x2
                | E4m3x4
                | E5m2x4
                | E2m3x4
                | E3m2x4
                | E2m1x4
                | E2m1p4x4
                | Ue8m0x4
                | Ue5m3x2
                | S2f6x2
                // ptxas 13.5: a syntax error in a declaration.
                | U8x4
                | S8x4
                // ptxas 13.5: "Type .f32x2 may only be used as an
                // instruction type".
                | F32x2
        )
    }

    /// Whether a packed type: two or more lanes in one value (`.f16x2`,
    /// `.u16x2`, `.e4m3x4`…).
    pub fn is_packed(self) -> bool {
        use ScalarType::*;
        matches!(
            self,
            F16x2
                | Bf16x2
                | U16x2
                | S16x2
                | U8x4
                | S8x4
                | F32x2
                | E4m3x2
                | E5m2x2
                | E2m3x2
                | E3m2x2
                | E2m1x2
                | Ue8m0x2
                | Ue5m3x2
                | S2f6x2
                | E2m1x4
                | E4m3x4
                | E5m2x4
                | E2m3x4
                | E3m2x4
                | E2m1p4x4
                | Ue8m0x4
        )
    }

    /// Whether a floating-point format of 8 bits or fewer a lane (FP8,
    /// FP6, FP4, UE8M0, UE5M3, S2F6), scalar or packed.
    pub fn is_minifloat(self) -> bool {
        use ScalarType::*;
        matches!(
            self,
            E4m3 | E5m2
                | E2m3
                | E3m2
                | E2m1
                | Ue8m0
                | E4m3x2
                | E5m2x2
                | E2m3x2
                | E3m2x2
                | E2m1x2
                | Ue8m0x2
                | Ue5m3x2
                | S2f6x2
                | E4m3x4
                | E5m2x4
                | E2m3x4
                | E3m2x4
                | E2m1x4
                | E2m1p4x4
                | Ue8m0x4
        )
    }

    /// The type of the same class (untyped, unsigned, signed, float) with
    /// `bits` bits, if there is one: what `.wide` makes of a type.
    pub fn with_bits(self, bits: u32) -> Option<ScalarType> {
        use ScalarType::*;
        let class: &[ScalarType] = match self {
            B8 | B16 | B32 | B64 | B128 => &[B8, B16, B32, B64, B128],
            U8 | U16 | U32 | U64 => &[U8, U16, U32, U64],
            S8 | S16 | S32 | S64 => &[S8, S16, S32, S64],
            F16 | F32 | F64 => &[F16, F32, F64],
            _ => &[],
        };
        class.iter().copied().find(|t| t.bits() == bits)
    }

    /// Whether a signed or unsigned integer type (`.u8` … `.s64`).
    pub fn is_integer(self) -> bool {
        use ScalarType::*;
        matches!(self, U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64)
    }

    /// Whether an untyped bit type (`.b8` … `.b128`).
    pub fn is_untyped(self) -> bool {
        use ScalarType::*;
        matches!(self, B8 | B16 | B32 | B64 | B128)
    }

    /// Whether a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::S8
                | ScalarType::S16
                | ScalarType::S32
                | ScalarType::S64
                | ScalarType::S16x2
                | ScalarType::S8x4
        )
    }

    /// Whether a floating-point type (any width or packing).
    pub fn is_float(self) -> bool {
        use ScalarType::*;
        matches!(
            self,
            F16 | F16x2
                | Bf16
                | Bf16x2
                | F32
                | F64
                | Tf32
                | E4m3
                | E5m2
                | E4m3x2
                | E5m2x2
                | E2m3
                | E3m2
                | E2m1
                | E2m3x2
                | E3m2x2
                | E2m1x2
                | Ue8m0
                | Ue8m0x2
                | E4m3x4
                | E5m2x4
                | E2m3x4
                | E3m2x4
                | E2m1x4
                | E2m1p4x4
                | Ue8m0x4
                | Ue5m3x2
                | S2f6x2
                | F32x2
        )
    }
}

spelled_enum! {
    /// A state space (spec 5.1), including the sub-qualified spellings
    /// instructions use.
    StateSpace {
        /// Registers.
        Reg = ".reg",
        /// Special registers.
        Sreg = ".sreg",
        /// Constant bank memory.
        Const = ".const",
        /// Global memory.
        Global = ".global",
        /// Thread-local memory.
        Local = ".local",
        /// Parameters.
        Param = ".param",
        /// Kernel parameters, explicitly.
        ParamEntry = ".param::entry",
        /// Function parameters, explicitly.
        ParamFunc = ".param::func",
        /// CTA shared memory.
        Shared = ".shared",
        /// Shared memory of the executing CTA.
        SharedCta = ".shared::cta",
        /// Shared memory of any CTA in the cluster.
        SharedCluster = ".shared::cluster",
        /// Texture memory (deprecated global textures).
        Tex = ".tex",
    }
}

impl StateSpace {
    /// Shared memory, in any of its spellings (`.shared`, `.shared::cta`,
    /// `.shared::cluster`).
    pub fn is_shared(self) -> bool {
        matches!(
            self,
            StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster
        )
    }
}

spelled_enum! {
    /// Linkage of a module-level symbol (spec 11.6).
    Linkage {
        /// Declared here, defined elsewhere.
        Extern = ".extern",
        /// Visible to other modules.
        Visible = ".visible",
        /// Visible, and may be overridden.
        Weak = ".weak",
        /// Common symbol: merged across modules.
        Common = ".common",
    }
}
