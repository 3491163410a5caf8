// Account and key commands
export { runAccountsCli } from "./accounts-cli";
