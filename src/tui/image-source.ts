/**
 * The terminal UI's images: the clipboard (Ctrl+V), pasted or dropped paths and `@shot.png`, each
 * prepared for the session's provider (src/images). A model the catalog knows takes no images
 * refuses them here, when they are attached, with the reason: nothing is sent.
 */
import { imageRefusal } from '../providers/index.js';
import type { ToolImage } from '../providers/types.js';
import { clipboardImage, imageLabel, loadImageFile, pastedImagePath } from '../images/attach.js';
import type { ImageSource } from './input/image-attachments.js';
import { useMemo, useRef } from 'react';

/** The session's provider and model, read at each attachment (`/model` may change the model). */
export interface ImageTarget {
  readonly provider: string;
  readonly model: string;
}

export function imageSourceFor(target: () => ImageTarget, cwd: string): ImageSource {
  const check = (): ImageTarget => {
    const current = target();
    const refusal = imageRefusal(current.model);
    if (refusal) throw new Error(refusal.replace('; nothing was sent', ''));
    return current;
  };
  return {
    async clipboard(): Promise<ToolImage> {
      return (await clipboardImage(check().provider)).image;
    },
    async file(path: string): Promise<ToolImage> {
      return (await loadImageFile(path, cwd, check().provider)).image;
    },
    pastedPath: (text) => pastedImagePath(text, cwd),
    label: imageLabel,
  };
}

/** The images of prompts submitted while a turn runs, by their text, until the queue sends them. */
class PromptImages {
  private readonly byText = new Map<string, ToolImage[]>();
  put(text: string, images: ToolImage[]): void {
    this.byText.set(text, images);
  }
  take(text: string): ToolImage[] | undefined {
    const images = this.byText.get(text);
    this.byText.delete(text);
    return images;
  }
}

/**
 * The App's side of attachments: the editor's props (where images come from, where a failure is
 * told) and `take`, the images a prompt's text was submitted with. `onSubmit` wraps the App's
 * submit, keeping each prompt's images until it is sent (now, or from the queue).
 */
export function useImageInput(session: { current: ImageTarget & { cwd: string } }, notice: (text: string, level: 'warn') => void) {
  const queued = useRef(new PromptImages()).current;
  const cwd = session.current.cwd;
  const images = useMemo(() => imageSourceFor(() => session.current, cwd), [session, cwd]);
  return useMemo(
    () => ({
      editor: { images, onNotice: (text: string) => notice(text, 'warn') },
      onSubmit: (submit: (text: string, shown?: string) => void) => (text: string, shown?: string, attached?: ToolImage[]) => {
        if (attached) queued.put(text, attached);
        submit(text, shown);
      },
      take: (text: string) => queued.take(text),
    }),
    [images, notice, queued],
  );
}
