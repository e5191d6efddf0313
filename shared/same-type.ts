/**
 * Compile-time equality of two types, for a type that must stay declared by hand beside the schema
 * that reads it (a documented interface from another layer, a recursive shape): `const x:
 * SameType<A, B> = true` compiles only when A and B are the same type — a field in one and not in
 * the other, optional or not, fails the typecheck. Stricter than mutual assignability, which an
 * optional field slips through.
 */
export type SameType<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
