// A helper thread of one contraction in rounds (core/routing/contraction-rounds.ts): started by
// contraction-helpers.ts with the round's control words and a port, it takes its share of each phase
// until the contraction stops it. It reads the arrays it is sent synchronously between phases (it
// never returns to an event loop while the contraction runs).
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { helpRounds, type RoundArrays } from '../../../../core/routing/contraction';

const { control, vertexCount, port, index, seen } = workerData as { control: Int32Array; vertexCount: number; port: MessagePort; index: number; seen: number };
helpRounds(control, vertexCount, () => receiveMessageOnPort(port)?.message as RoundArrays | undefined, index, seen);
port.close();
