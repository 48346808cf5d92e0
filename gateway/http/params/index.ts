export * from './scalars';
export * from './structured';
export * from './param-docs';
