import { useEffect, useState } from 'react';

/**
 * False on a component's first frame, true once its effects have run. Ink's `useInput` attaches
 * its key listener in an effect, after the frame is drawn: a key typed in that gap (a person who
 * answers as soon as the question appears while the event loop is busy) would be dropped. A
 * component that calls this right after `useInput` and draws its question only when it returns
 * true can never show a question that cannot hear its answer: effects run in order, so the
 * listener is attached before this one flips the state.
 */
export function useInputAttached(): boolean {
  const [attached, setAttached] = useState(false);
  useEffect(() => setAttached(true), []);
  return attached;
}
