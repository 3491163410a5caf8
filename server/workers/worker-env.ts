// The environment a worker process is started with (spawn-sibling-worker.ts sets it, host-port.ts
// reads it): its start data, and the nice value it takes. Only a worker process has the first.

/** Structured-clone bytes of the worker's start data, in base64. */
export const WORKER_DATA_ENV = "OPTIONSCOPE_WORKER_DATA";
/** The nice value every thread of the worker process takes. */
export const WORKER_NICE_ENV = "OPTIONSCOPE_WORKER_NICE";
