// The chord diagram of bundled lines (views.ChordLines): the same
// bundled-curve view as the sender/receiver diagram (senderreceiver.js),
// its lines coloured from green at the sender to red at the receiver
// (spec.grad) and straightened by Holten's β (spec.beta).
import { curveView } from './senderreceiver.js';

export function chordlinesView(root, img, sp) {
  return curveView(root, img, sp);
}
