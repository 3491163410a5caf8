// Tool server (Streamable HTTP MCP at {mcp_url})
export {
  createToolServer,
  isOAuthDiscoveryPath,
  TOOL_SERVER_INFO,
  TOOL_SERVER_INSTRUCTIONS,
  type ToolServer,
  type ToolServerOptions,
} from "./tool-server";
// Tools generated from the route table
export { kindsOf, routeTool, routeTools, toolNameFor, type ArgKind, type RouteTool } from "./route-tools";
export { REFERENCE_TOOL_NAMES } from "./reference-tool-names";
export { toRouteInput } from "./tool-args";
export { toToolResult } from "./tool-result";
// Callers: API keys and OAuth access tokens
export { bearerChallenge, principalForGrant, resolveToolCaller, type ToolCaller } from "./tool-auth";
