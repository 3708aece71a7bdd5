import type { Engines } from '../../engines';
import { ocrLanguages } from './common';

/** Names of the languages tesseract is usually installed with; other installed codes are listed by code. */
const languageNames: Record<string, string> = {
  eng: 'English',
  fra: 'French',
  deu: 'German',
  spa: 'Spanish',
  ita: 'Italian',
  por: 'Portuguese',
  nld: 'Dutch',
  pol: 'Polish',
  rus: 'Russian',
  ara: 'Arabic',
  chi_sim: 'Chinese (simplified)',
  chi_tra: 'Chinese (traditional)',
  jpn: 'Japanese',
  kor: 'Korean',
};

/** The installed OCR languages with their names; `scratch` is a directory the engine may write to. */
export async function installedLanguages(
  engines: Engines,
  scratch: string,
): Promise<Array<{ code: string; name: string }>> {
  const codes = await ocrLanguages({ engines, ctx: { scratch } });
  return codes.map((code) => ({ code, name: languageNames[code] ?? code }));
}
