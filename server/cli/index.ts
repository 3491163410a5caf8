// Account and key commands
export { runAccountsCli, ACCOUNTS_CLI_USAGE, EXIT_FAILED, EXIT_OK, EXIT_STORE, EXIT_USAGE, type CliIo } from "./accounts-cli";
