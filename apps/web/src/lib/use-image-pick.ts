import { useState } from 'react';
import { checkImageFile, type ImageProblem } from './images';

type PickMessages = Record<ImageProblem, string> & {
  /** Said when the picker is cleared, for a form that cannot do without the image. */
  required?: string;
};

/** A picked image file with the client-side type and size checks of spec §5. */
export function useImagePick(messages: PickMessages) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string>();

  const pick = (next: File | null) => {
    const problem = next && checkImageFile(next);
    setFile(problem ? null : next);
    setError(problem ? messages[problem] : next ? undefined : messages.required);
    return !problem;
  };

  return { file, error, pick, setError };
}
