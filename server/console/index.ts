// The developer console: sign-in, sessions, CSRF and the customer's own keys, apps, invite codes
// and monthly cap, at /console on {base_url}. See docs/operations.md#developer-console.
export { createConsoleApp, CONSOLE_PREFIX, type ConsoleAppOptions } from "./console-app";
export { createConsoleService, type ConsoleService, type ConsoleServiceOptions } from "./console-service";
export { createKeyUseTracker, type KeyUseTracker } from "./key-use-tracker";
export { createSignInLimiter, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from "./sign-in-limiter";
