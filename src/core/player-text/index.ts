export { playerText, playerTextSoFar } from './player-text';
export type { PlayerTextOptions } from './player-text';
export { PlayerTextStream } from './player-text-stream';
