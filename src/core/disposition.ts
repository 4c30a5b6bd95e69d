/**
 * What became of an event, a line or a record handed on: used (with what using it produced, when
 * that matters), or not, with the reason the diagnostic gives. One shape for replay's preparation,
 * an adapter's emit and the live attribution of Gateway-log lines.
 */
export type Disposition<Used extends object = object> = ({ readonly used: true } & Used) | { readonly used: false; readonly reason: string };
