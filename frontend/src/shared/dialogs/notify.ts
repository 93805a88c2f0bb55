// Notifications close by themselves after 5000 ms (SPEC §9).
import { notification } from 'antd';

export const NOTIFY_MS = 5000;

export function notifySuccess(message: string): void {
  notification.success({ title: message, duration: NOTIFY_MS / 1000, placement: 'topRight' });
}

export function notifyError(message: string): void {
  notification.error({ title: message, duration: NOTIFY_MS / 1000, placement: 'topRight' });
}
