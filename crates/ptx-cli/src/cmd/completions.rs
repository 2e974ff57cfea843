//! `ptx completions SHELL`: shell completion scripts (clap_complete),
//! generated from the command-line definition itself, so they never fall
//! out of date.

use std::io::Write;

/// Arguments of `ptx completions`.
#[derive(clap::Args)]
#[command(after_help = "\
Install, for example:
  bash: ptx completions bash > ~/.local/share/bash-completion/completions/ptx
  zsh:  ptx completions zsh > ~/.zfunc/_ptx   (with ~/.zfunc in $fpath)
  fish: ptx completions fish > ~/.config/fish/completions/ptx.fish")]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[inline(never)]
pub fn run(a: Args, mut cmd: clap::Command) -> u8 {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(a.shell, &mut cmd, "ptx", &mut out);
    let _ = out.flush();
    0
}
