// The writer lives with the parts, the lowest folder, so that every folder can serialise at any
// depth; the wire keeps its name for it.
export { stringifyIteratively, stringifyJson } from '../parts/stringify-json';
