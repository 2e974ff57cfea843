//! `ptx man`: manual pages (clap_mangen), generated from the command-line
//! definition itself, so they never fall out of date.

use std::io::Write;
use std::path::PathBuf;

/// Arguments of `ptx man`.
#[derive(clap::Args)]
pub struct Args {
    /// The page of this subcommand (`ptx-check(1)`) instead of `ptx(1)`.
    pub subcommand: Option<String>,
    /// Write every page (`ptx.1`, `ptx-check.1`, …) into this directory
    /// instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub out_dir: Option<PathBuf>,
}

#[inline(never)]
pub fn run(a: Args, cmd: clap::Command) -> Result<u8, String> {
    if let Some(dir) = &a.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        clap_mangen::generate_to(cmd, dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        return Ok(0);
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let page = match &a.subcommand {
        None => cmd,
        Some(name) => {
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            let Some(sub) = cmd.find_subcommand(name).cloned() else {
                return Err(format!(
                    "no subcommand `{name}`{}; subcommands: {}",
                    ptxkit::suggest::did_you_mean(name, names.iter().map(String::as_str)),
                    names.join(" ")
                ));
            };
            sub
        }
    };
    let mut text = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut text)
        .map_err(|e| e.to_string())?;
    out_bytes(&text);
    Ok(0)
}

fn out_bytes(b: &[u8]) {
    let _ = std::io::stdout().lock().write_all(b);
}
