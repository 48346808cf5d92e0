export * from './scalars';
export * from './structured';
