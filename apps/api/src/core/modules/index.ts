import type { EngineModule } from '../engine-module';
import { chromiumModule } from './chromium/index';
import { ghostscriptModule } from './ghostscript/index';
import { imagesModule } from './images/index';
import { libreofficeModule } from './libreoffice/index';
import { pdfLibModule } from './pdf-lib/index';
import { pdfScanModule } from './pdf-scan/index';
import { popplerModule } from './poppler/index';
import { qpdfModule } from './qpdf/index';
import { qrcodeModule } from './qrcode/index';
import { tesseractModule } from './tesseract/index';
import { zbarModule } from './zbar/index';

/** The wiring list: every engine module the server knows. Adding an engine is adding a line here. */
export const engineModules: ReadonlyArray<EngineModule<Record<string, unknown>>> = [
  pdfScanModule,
  qpdfModule,
  popplerModule,
  pdfLibModule,
  ghostscriptModule,
  qrcodeModule,
  chromiumModule,
  zbarModule,
  tesseractModule,
  imagesModule,
  libreofficeModule,
] as unknown as ReadonlyArray<EngineModule<Record<string, unknown>>>;
