export * from '../../../core/input/scalars';
export * from '../../../core/input/structured';
export * from './geocoding';
export * from '../../../core/input/hostile';
export * from './param-docs';
