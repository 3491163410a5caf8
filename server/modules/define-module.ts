/**
 * An API module, declared once: its routes, the state they share (caches, worker pools, stream
 * hubs), and its non-API pages. `createApp({ modules })` mounts the list; nothing else about a
 * module is registered anywhere. See docs/architecture.md#adding-a-module.
 */
import type { AppServices } from "../services";
import type { WebPage } from "../web";
import type { AnyRoute, RouteDef } from "./define-route";

/** One module. `S` is its state, created once per app and handed to its handlers as `ctx.state`. */
export interface ModuleDef<S = unknown> {
  name: string;
  /** In the order they appear in the OpenAPI documents and the tool list. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  // biome-ignore lint/suspicious/noExplicitAny: routes of different query and data types in one list; `unknown` would reject their handlers (parameters are contravariant)
  routes: readonly RouteDef<any, any, S>[];
  /** The module's state for one app (lazy inside: nothing heavy may start here). */
  createState?: (services: AppServices) => S;
  /** Pages served on the module's host without key or charge (for example the chart page). */
  pages?: readonly WebPage[];
  /**
   * Ends what the state holds when the app shuts down: open streams are asked to reconnect
   * elsewhere (waiting up to `graceMs`), then worker threads and timers stop.
   */
  shutdown?: (state: S, graceMs: number) => void | Promise<void>;
}

/** A module mounted on one app, with its state. */
export interface MountedModule<S = unknown> {
  def: ModuleDef<S>;
  state: S;
}

/**
 * Declare a module. Identity at runtime; it exists so TypeScript ties the routes' `ctx.state`
 * to `createState`.
 * @example export const priceModule = defineModule({ name: "price", routes: [historyRoute], createState: createPriceState });
 */
export function defineModule<S>(def: ModuleDef<S>): ModuleDef<S> {
  return def;
}

/** The state of a mounted module (undefined state when the module declares none). */
export function moduleStateOf<S>(services: AppServices, def: ModuleDef<S>): S {
  const mounted = services.modules.find((m) => m.def === def);
  if (!mounted) throw new Error(`module ${def.name} is not mounted on this app`);
  return mounted.state as S;
}

/** Each route with the state of the module that declares it. */
export function mountedRoutes(modules: readonly MountedModule[]): { route: AnyRoute; state: unknown }[] {
  return modules.flatMap((m) => m.def.routes.map((route) => ({ route: route as AnyRoute, state: m.state })));
}
