/**
 * The new-notification sound: a short two-note chime made with Web Audio, so there is no audio file to
 * ship or cache. Browsers refuse audio before the first user gesture; then it is silently skipped.
 */
let context: AudioContext | null = null;

export function playNotificationSound(): void {
  try {
    context ??= new AudioContext();
    const audio = context;
    if (audio.state === "suspended") void audio.resume().catch(() => undefined);
    const start = audio.currentTime;
    for (const [index, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + index * 0.12;
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.2);
    }
  } catch {
    // No audio device or not allowed: a notification still shows.
  }
}
