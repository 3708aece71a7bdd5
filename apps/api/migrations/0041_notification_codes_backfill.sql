-- Notifications stored before they carried a code (0036) keep only their French words, so an English reader saw the
-- usage and trial reminders in French. Those written by the server's known sentences get their code and values back
-- from the words; the bell then renders them in its reader's language. Others (none known) stay as they are.
WITH found AS (
  SELECT id, 'usage.key-quota-80' AS code, m,
    jsonb_build_object('name', m[1], 'percent', m[2]::int, 'used', m[3]::int, 'limit', m[4]::int) AS params
  FROM (SELECT id, regexp_match(message,
    '^La clé « (.*) » a utilisé (\d+) % de son quota mensuel \((\d+) / (\d+) requêtes\)\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'usage.plan-quota-80', m,
    jsonb_build_object('plan', m[1], 'percent', m[2]::int, 'used', m[3]::int, 'limit', m[4]::int)
  FROM (SELECT id, regexp_match(message,
    '^Vos clés du forfait (.*) ont utilisé (\d+) % de son quota mensuel \((\d+) / (\d+) requêtes\)\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'trial.ending', m, jsonb_build_object('plan', m[1], 'days', m[2]::int, 'until', m[3])
  FROM (SELECT id, regexp_match(message,
    '^Votre essai du plan (.*) se termine dans (\d+) jours? \((\d{4}-\d{2}-\d{2})\)\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'trial.ended', m, jsonb_build_object('plan', m[1])
  FROM (SELECT id, regexp_match(message,
    '^Votre essai du plan (.*) est terminé : ses clés API répondent 402 jusqu''au renouvellement par un administrateur\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'trial.started', m, jsonb_build_object('days', m[1]::int, 'plan', m[2], 'until', m[3])
  FROM (SELECT id, regexp_match(message,
    '^Votre essai gratuit de (\d+) jours du plan (.*) est actif jusqu''au (\d{4}-\d{2}-\d{2})\. Aucune carte bancaire n''est nécessaire\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'api-key.created', m, jsonb_build_object('name', m[1], 'plan', m[2], 'environment', m[3])
  FROM (SELECT id, regexp_match(message,
    '^La clé « (.*) » \((.*), (development|staging|production)\) a été créée\. Conservez-la : elle ne sera plus affichée\.$') AS m
    FROM notifications WHERE code IS NULL) s
  UNION ALL
  SELECT id, 'api-key.regenerated', m, jsonb_build_object('name', m[1])
  FROM (SELECT id, regexp_match(message,
    '^La clé « (.*) » a été régénérée : l''ancienne valeur ne fonctionne plus\. Mettez à jour vos services\.$') AS m
    FROM notifications WHERE code IS NULL) s
)
UPDATE notifications n SET code = f.code, params = f.params
FROM found f
WHERE n.id = f.id AND f.m IS NOT NULL AND n.code IS NULL;
