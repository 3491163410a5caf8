// The developer console: sign-in, sessions, CSRF and the customer's own keys, apps, invite codes
// and monthly cap, at /console on {base_url}. See docs/operations.md#developer-console.
export { createConsoleApp } from "./console-app";
export { createConsoleService, type ConsoleService } from "./console-service";
export { createKeyUseTracker, type KeyUseTracker } from "./key-use-tracker";
