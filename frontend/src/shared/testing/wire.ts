// Tests answer as the gateway does, in snake_case; the generated client's types are
// camelCase (the base query converts every key). `Wire<T>` is a generated type as the gateway
// sends it, so a fixture written `satisfies Wire<OrderBody>` fails to type-check when the
// API's shape moves on.

/** `nameTh` → `name_th`. */
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;

/** A generated (camelCase) type as it travels (snake_case keys, all the way down). */
export type Wire<T> = T extends (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? Snake<K> : K]: Wire<T[K]> }
    : T;
