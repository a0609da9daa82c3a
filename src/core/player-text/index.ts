export { playerText, playerTextSoFar } from './player-text';
export type { PlayerTextOptions } from './player-text';
