//! `ptx lsp`: the PTX language server on stdin and stdout.

/// Arguments of `ptx lsp`.
#[derive(clap::Args)]
pub struct Args {
    /// Talk over stdin and stdout (the only transport, and the default;
    /// accepted because editors' language clients pass it).
    #[arg(long)]
    pub stdio: bool,
    /// Check every document against this target (`sm_90a`) instead of its
    /// `.target`; the client's `initializationOptions` may set it too.
    #[arg(long, value_name = "sm_XX")]
    pub target: Option<String>,
}

#[inline(never)]
pub fn run(a: Args) -> Result<u8, String> {
    let _ = a.stdio;
    // The server gives memory back to the system after closing large
    // documents through the allocator `ptx` runs on.
    let host = ptxkit_lsp::server::Host {
        release_memory: Some(ptx_alloc::release_free_memory),
    };
    ptxkit_lsp::server::run_stdio_hosted(
        ptxkit_lsp::Config {
            target: a.target,
            ..Default::default()
        },
        host,
    )
    .map_err(|e| format!("lsp: {e}"))?;
    Ok(0)
}
