// Tool server (Streamable HTTP MCP at {mcp_url})
export type { ToolServerOptions } from "./tool-server";
// Tools generated from the route table
export { routeTools } from "./route-tools";
