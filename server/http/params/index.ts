export * from './scalars';
export * from './structured';
export * from './geocoding';
export * from './hostile';
export * from './param-docs';
