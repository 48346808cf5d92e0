export * from './scalars';
export * from './structured';
export * from './hostile';
