// The drawing helpers every component uses: a rounded rectangle, a picture fitted in a box, a box placed in a frame.

import type { CanvasRenderingContext2D, Image } from 'canvas';
import type { Frame } from './grid.js';
import type { Alignment } from './model.js';

export function roundRect(ctx: CanvasRenderingContext2D, box: Frame, radius: number): void {
  const r = Math.max(0, Math.min(radius, box.width / 2, box.height / 2));
  ctx.beginPath();
  ctx.moveTo(box.x + r, box.y);
  ctx.arcTo(box.x + box.width, box.y, box.x + box.width, box.y + box.height, r);
  ctx.arcTo(box.x + box.width, box.y + box.height, box.x, box.y + box.height, r);
  ctx.arcTo(box.x, box.y + box.height, box.x, box.y, r);
  ctx.arcTo(box.x, box.y, box.x + box.width, box.y, r);
  ctx.closePath();
}

/** A picture in a box: `cover` fills it (cropping), `fit` shows all of it, `fill` stretches it. */
export function drawPicture(
  ctx: CanvasRenderingContext2D,
  picture: Image,
  box: Frame,
  fit: 'fit' | 'fill' | 'cover',
  radius: number,
): void {
  ctx.save();
  roundRect(ctx, box, radius);
  ctx.clip();
  if (fit === 'fill') ctx.drawImage(picture, box.x, box.y, box.width, box.height);
  else {
    const scale =
      fit === 'cover'
        ? Math.max(box.width / picture.width, box.height / picture.height)
        : Math.min(box.width / picture.width, box.height / picture.height);
    const width = picture.width * scale;
    const height = picture.height * scale;
    ctx.drawImage(picture, box.x + (box.width - width) / 2, box.y + (box.height - height) / 2, width, height);
  }
  ctx.restore();
}

/** A box of a given size placed in a frame by an alignment. */
export function place(frame: Frame, width: number, height: number, align: Alignment | 'leading'): Frame {
  const horizontal = /Leading$|^leading$/.test(align) ? 0 : /Trailing$|^trailing$/.test(align) ? 1 : 0.5;
  const vertical = /^top/.test(align)
    ? 0
    : /^bottom/.test(align)
      ? 1
      : align === 'leading' || align === 'trailing' || align === 'center'
        ? 0.5
        : 0;
  return {
    x: frame.x + (frame.width - Math.min(width, frame.width)) * horizontal,
    y: frame.y + (frame.height - Math.min(height, frame.height)) * vertical,
    width: Math.min(width, frame.width),
    height: Math.min(height, frame.height),
  };
}

export function alignedX(frame: Frame, width: number, align: 'leading' | 'center' | 'trailing'): number {
  return align === 'center' ? frame.x + (frame.width - width) / 2 : align === 'trailing' ? frame.x + frame.width - width : frame.x;
}
