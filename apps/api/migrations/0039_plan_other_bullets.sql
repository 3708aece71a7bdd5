-- A plan's `features` are now only its other bullets (support, SLA…): the pages make the bullets stating a limit
-- from the limits themselves, so that editing a limit in Plan Management changes its bullet too (issue 29). The
-- seeded limit bullets ('1,000 requests per month', 'Files up to 5 MB', '5 API keys'…) are removed, with the seeded
-- endpoint lines the pages also make from allowed_endpoints; an operator's own other bullets stay.
UPDATE plans SET features = ARRAY(
  SELECT f FROM unnest(features) WITH ORDINALITY AS t(f, i)
  WHERE f !~* '^[0-9.,[:space:]]+\+?[[:space:]]*(requests?|calls?|api[[:space:]]+keys?|pages?)\y'
    AND f !~* '^(files?|pdfs?|uploads?)[[:space:]]+(of[[:space:]]+)?up[[:space:]]+to\y'
    AND f !~* '^bursts?[[:space:]]+of[[:space:]]+[0-9.,]+'
    AND f NOT IN ('Conversion of 15+ formats to PDF', 'Conversion, PDF operations, OCR and QR codes',
      'All endpoints, batch conversion and webhooks')
  ORDER BY i
);
