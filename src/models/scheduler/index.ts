export { ModelScheduler, Priority } from './model-scheduler';
export type { ModelSchedulerOptions } from './options';
export type { SchedulerEvent, SchedulerEventType, SchedulerStats } from './events';
