// The API's request and response schemas, shared by the server's routes and the typed client.
export * from "./common";
export * from "./params";
export * from "./streams";
export * from "./account";
export * from "./positioning";
export * from "./price";
export * from "./board";
export * from "./marks";
export * from "./vol";
export * from "./flow-params";
export * from "./flow";
export * from "./flow-reference";
export * from "./flow-market";
export * from "./flow-reference-2";
export * from "./flow-stream";
