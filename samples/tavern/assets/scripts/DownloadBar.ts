/**
 * The on-device model's download bar, driven by the NanoStatus component on the same node: a
 * ProgressBar while Gemini Nano downloads, a sentence for the player on devices that cannot run
 * it, and a Download button when the model is downloadable. The whole bar hides itself once the
 * model is ready. In the editor and browser previews NanoStatus reports the stand-in model.
 */
import { _decorator, Component, Label, ProgressBar, Node } from 'cc';
import { NanoStatus, NANO_AVAILABILITY, NANO_PROGRESS } from 'db://oam-cocos/index';
import type { NanoAvailabilityEvent } from 'db://oam-cocos/index';

const { ccclass, property, menu, requireComponent } = _decorator;

/** The download progress NanoStatus reports (bytes; fraction 0…1 when the total is known). */
export interface DownloadProgressEvent {
  bytesDownloaded: number;
  totalBytes?: number;
  fraction?: number;
}

/** The text under the bar while downloading. */
export function progressText(p: DownloadProgressEvent): string {
  const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(0);
  if (p.fraction !== undefined && p.totalBytes) return `Downloading the AI model… ${Math.round(p.fraction * 100)}% of ${mb(p.totalBytes)} MB`;
  return `Downloading the AI model… ${mb(p.bytesDownloaded)} MB`;
}

@ccclass('tavern.DownloadBar')
@menu('tavern/DownloadBar')
@requireComponent(NanoStatus)
export class DownloadBar extends Component {
  @property({ type: ProgressBar, tooltip: 'Filled while the model downloads.' })
  bar: ProgressBar | null = null;

  @property({ type: Label, tooltip: 'Status sentence for the player.' })
  messageLabel: Label | null = null;

  @property({ type: Node, tooltip: 'The Download button\'s node (shown only when the model is downloadable).' })
  downloadButton: Node | null = null;

  @property({ tooltip: 'Hide the whole bar once the model is ready.' })
  hideWhenReady = true;

  onLoad(): void {
    this.node.on(NANO_AVAILABILITY, this.onAvailability, this);
    this.node.on(NANO_PROGRESS, this.onProgress, this);
    this.showDownloadButton(false);
  }

  onDestroy(): void {
    if (this.node && this.node.isValid) this.node.targetOff(this);
  }

  onAvailability(event: NanoAvailabilityEvent): void {
    this.setMessage(event.message);
    if (this.bar) this.bar.progress = event.status === 'available' ? 1 : event.status === 'downloading' ? this.bar.progress : 0;
    this.showDownloadButton(event.status === 'downloadable');
    if (event.status === 'available' && this.hideWhenReady) this.scheduleOnce(() => { this.node.active = false; }, 2);
  }

  onProgress(progress: DownloadProgressEvent): void {
    if (this.bar && progress.fraction !== undefined) this.bar.progress = Math.max(0, Math.min(1, progress.fraction));
    this.setMessage(progressText(progress));
    this.showDownloadButton(false);
  }

  /** Button handler (Click Events: DownloadBar.onDownloadClicked). */
  onDownloadClicked(): void {
    const status = this.getComponent(NanoStatus);
    if (!status) return;
    this.showDownloadButton(false);
    status.download().catch((e: { message: string }) => this.setMessage(`The download failed: ${e.message}`));
  }

  private showDownloadButton(show: boolean): void {
    if (this.downloadButton) this.downloadButton.active = show;
  }

  private setMessage(text: string): void {
    if (this.messageLabel) this.messageLabel.string = text;
  }
}
