/** Dialects: which reading of each "not shown" point of the spec the sandbox speaks. */
export * from './choices.js';
export * from './parse.js';
export * from './presets.js';
