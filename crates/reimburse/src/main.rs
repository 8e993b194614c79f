//! The `reimburse` binary: parses the command line and runs the chosen command.

mod cli;
mod extract_cmd;
mod flow_cmd;
mod recognize_cmd;
mod serve;
mod service_config;
mod telemetry;
mod user_cmd;

use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = cli::Cli::parse();
    telemetry::init();
    match cli.command {
        cli::Command::Serve(args) => serve::run(args),
        cli::Command::Extract(args) => extract_cmd::run(&args),
        cli::Command::Recognize(args) => recognize_cmd::run(&args),
        cli::Command::Flow(command) => flow_cmd::run(&command),
        cli::Command::User(args) => user_cmd::run(&args),
    }
}
