// Child of recorder-kill.process.test.ts: `optionscope record` through its command function alone
// (what server/main.ts calls), without loading the whole server, so each start is cheap.
import { runRecordCli } from "../../../server/cli/record-cli";

runRecordCli(["record", ...process.argv.slice(2)], process.env).then((code) => process.exit(code));
