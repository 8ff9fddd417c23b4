import { useState } from 'react';
import { checkImageFile, type ImageProblem } from './images';

/** A picked image file with the client-side type and size checks of spec §5. */
export function useImagePick(messages: Record<ImageProblem, string>) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string>();

  const pick = (next: File | null) => {
    const problem = next && checkImageFile(next);
    setFile(problem ? null : next);
    setError(problem ? messages[problem] : undefined);
    return !problem;
  };

  return { file, error, pick, setError };
}
