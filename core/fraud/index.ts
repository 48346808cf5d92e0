export { FRAUD_FLAGS, LAST_AT_FIELD, checkFraud, impliedSpeed, type FraudCheckInput, type FraudFlag, type FraudHints, type FraudObject } from './fraud-check';
export { DEFAULT_MAX_SPEED_MPS, INACCURATE_ABOVE_M, MAX_SPEED_MPS, maxSpeedFor } from './thresholds';
