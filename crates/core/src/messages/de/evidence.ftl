# UI-Texte und Bezeichnungen von Aufzählungswerten (Deutsch). Jeder Schlüssel hier muss auch in jeder anderen Sprache einer Website (locales/<tag>/) vorhanden sein.

## Rahmen
skip-to-content = Zum Inhalt springen
views-label = Sprachansicht
# Der eigene Name der Sprache, im Sprachumschalter in dieser Sprache gezeigt.
language-name = Deutsch
nav-label = Seiten
footer-grounded = Jede Tabelle auf dieser Website wird aus aufgezeichneten Beobachtungen erzeugt. Ein Eintrag „Kann nicht zeigen“ markiert die Grenze eines Beobachters, nicht mangelnden Aufwand.
not-found = Diese Seite existiert nicht.
back-home = Zurück zur Startseite.
value-unknown = unbekannt
page-revised = Überarbeitet

## Tabellen, gemeinsam
table-source = Quelle:
table-empty = Keine Einträge.
col-id = ID
col-field = Feld
col-value = Wert
col-status = Status
col-refs = Belege
col-source = Quelle
col-date = Datum

## Aussagen
claims-caption = Was diese Seite zeigen kann und was nicht
claims-can = Kann zeigen
claims-cannot = Kann nicht zeigen
claims-evidence = Belege:
claims-corrected-by = Korrigiert durch einen späteren Befund:
claims-moved-from-cannot = Jetzt gezeigt; stand zuvor auf der Seite dessen, was sich nicht zeigen lässt.
claims-moved-from-cannot-of = Jetzt gezeigt; stand zuvor bei { $claim } auf der Seite dessen, was sich nicht zeigen lässt.
claims-moved-from-can = Nicht mehr gezeigt; stand zuvor auf der Seite dessen, was sich zeigen lässt.
claims-moved-from-can-of = Nicht mehr gezeigt; stand zuvor bei { $claim } auf der Seite dessen, was sich zeigen lässt.
claims-constraint = Grenze des Beobachters:
claims-limit = Grenze:

basis-source = aus dem Quelltext
basis-observed = beobachtet
basis-inferred = unsere Deutung
basis-legend = Worauf eine Aussage beruht:
basis-legend-observed = von dieser Untersuchung aufgezeichnet (ein Lauf, ein Scan, ein Protokoll).
basis-legend-source = aus der verlinkten Datei, dem Commit oder dem Pull Request gelesen.
basis-legend-inferred = ein Schluss dieser Seite, den weder eine Aufzeichnung noch eine Quelle ausspricht.
claims-note = Ein Eintrag „Kann nicht zeigen“ markiert die Grenze eines Beobachters, nicht mangelnden Aufwand.
ledger-caption = { $count ->
    [one] Ein Aussagenpaar
   *[other] { $count } Aussagenpaare
  }

## Fragen
questions-caption = Offene und geklärte Fragen
questions-question = Frage
questions-evidence = Relevante Belege
questions-next = Nächster Ansatzpunkt:
questions-none = Keine Fragen.
question-status-open = offen
question-status-resolved = geklärt

## Bundles
col-role = Rolle

## Generationen

## Komponenten
components-caption = Komponenten und was an ihnen beobachtet wurde
components-loaded-via = Geladen über
col-component = Komponente
col-observed = Beobachtet
col-detail = Detail

## Beobachter
observers-caption = Beobachter und ihr Status
col-observer = Beobachter
col-tried = Was versucht wurde
col-outcome = Ergebnis
col-showed = Was sich zeigte
col-constraint = Was ihn hindert
col-as-of = Stand
outcome-distorts = verfälscht
outcome-blocked = blockiert
outcome-partial = teilweise
outcome-works = funktioniert

## Arbeitsprotokoll
worklog-caption = Arbeitsprotokoll, Phase für Phase
col-phase = Phase
col-fixed = Was festgestellt wurde
col-questions = Offene Fragen

## Dispatch
dispatch-otherwise = sonst
dispatch-any = beliebiger Wert
dispatch-source = Gelesen aus:
dispatch-applies-to = Gilt für:
col-condition = Bedingung
col-family = Familie
col-anchor = Anker
col-chain = Verläuft über
compare-caption = Entscheidungskarten im Vergleich über { $var }
compare-note = Hervorgehobene, mit ≠ markierte Zeilen sind die Bereiche, in denen die Karten voneinander abweichen.
compare-differs = die Karten weichen hier ab
col-range = Bereich von { $var }

## Läufe
run-caption = Lauf
run-probe = Probe
run-engine = Engine
run-subject-other = Vergleich, Gegenstand:
run-note = Notiz:
run-subject = Gegenstand:
run-note-as-written = wie aufgezeichnet, nicht übersetzt
runs-subject-own = Gegenstand der Untersuchung:
runs-subject-compared = Zum Vergleich herangezogener Gegenstand:
run-conditions = Bedingungen:
latest-caption = Neuester Lauf von { $probe }:
runs-caption = Alle Probe-Läufe
runs-none = Noch keine Läufe aufgezeichnet.
runs-latest = neuester
runs-order-unknown = Reihenfolge unbekannt
run-nav-previous = Lauf davor:
run-nav-next = Lauf danach:
run-nav-index = Alle Läufe
run-order-unknown = Ohne Datum bei beiden Läufen ist die Reihenfolge dieses Laufs unter den anderen Läufen seiner Probe unbekannt: keiner wird als davor oder danach gezeigt.
run-same-result-later = Ein späterer Lauf las dieselbe Datei und zeichnete dasselbe Ergebnis auf; seine Seite zeigt die Tabelle:
run-same-result-earlier = Ein früherer Lauf las dieselbe Datei und zeichnete dasselbe Ergebnis auf:
col-zones = Fälle je Zone (abgeglichene Karte)
runs-zones-open = { $count ->
    [one] 1 laut Lesart offen
   *[other] { $count } laut Lesart offen
}
runs-previous = Deltas beziehen sich auf den vorherigen Lauf derselben Probe, { $run }.
runs-zone-note = Zonen werden aus jeder Entscheidungskarte abgeleitet, nie von Hand eingetragen.
runs-zone-assessed = Die Karte, mit der die Untersuchung abgeglichen wurde, ist umrandet und mit „abgeglichen“ markiert.
runs-zone-not-applicable = Karten, die für andere Gegenstände gelten, geben diesem Lauf keine Zone: { $maps }.
zone-assessed = abgeglichen
col-run = Lauf
col-probe = Probe
col-recorded = Aufgezeichnet durch
recorded-probe = Probe
recorded-import = Import
recorded-transcribed = abgeschrieben
col-engine = Engine
col-cases = Fälle
col-case = Fall
col-derived-zone = Abgeleitete Zone (je Karte)
col-reading = Festgehaltene Deutung
col-delta = Δ seit { $run }
engine-none = keine (Datei gelesen)
runs-delta-new = neuer Fall
runs-only-previous = Fälle nur in { $run }:
runs-zones-changed = Seit { $run } geänderte Zonen unter { $map }:
runs-compare-caption = Verglichen mit dem vorherigen Lauf:
runs-compare-note = Jede Zelle liest sich: vorheriger Lauf ({ $run }) → dieser Lauf. Wiederholte Fälle werden über ihren Median verglichen.
runs-compare-map = Zonen werden nach Karte { $map } gelesen.
runs-median-of = Median aus { $n }
col-zone-change = Abgeleitete Zone

## Glossar, Befunde, Quantisierung
glossary-caption = Glossar
col-term = Begriff
col-definition = Definition
findings-caption = Befunde aus dem Quelltext
col-finding = Befund

## Abbildungen
figure-enlarge = In voller Größe öffnen
figure-no-data = Noch nichts darzustellen: Der Lauf enthält keine Werte für diese Abbildung.
figure-unreachable = (nie erreicht)
figure-no-branches = Diese Karte hat keine Verzweigungen.
figure-dispatch-title = Entscheidungsablauf: { $map }
figure-diff-title = Wo die Entscheidungskarten abweichen, Bereich für Bereich
figure-diff-legend = ≠ markiert einen Bereich, den die Karten unterschiedlich leiten; die umrandete Zelle ist die, die von den anderen abweicht.
figure-observers-title = Was jeder Beobachter versucht hat und wie es ausging
figure-as-of = Stand vom { $date }
figure-chain-title = Kette der Komponenten und was an jeder beobachtet wurde
figure-chain-side = Kästen rechts werden über die Komponente geladen, von der ihr Pfeil ausgeht.
figure-chain-legend-loaded = gestrichelt: { $statuses }
figure-chain-legend-binary = durchgezogen: { $statuses }
figure-chain-others = Nicht in der Kette
figure-chain-none = Noch keine Kette aufgezeichnet: Komponenten in data/components.yaml einen `next`-Verweis geben.
figure-proxy-title = Fälle des Laufs { $run } entlang der Variablen der Karte, über den Zonen der Karte „{ $map }“
figure-proxy-title-nomap = Fälle des Laufs { $run } entlang der Variablen der Karte (keine Karte zum Abgleich)
figure-proxy-open = die aufgezeichnete Lesart lässt den Weg offen
figure-proxy-title-previous = Fälle des Laufs { $run } entlang der Variablen der Karte, über den Zonen der Karte „{ $map }“, der Karte, mit der der vorige Lauf { $previous } abgeglichen wurde
figure-proxy-axis = die Variable der Karte, wie der Lauf sie gemessen hat (logarithmische Skala)
figure-timing-title = Dauern des Laufs { $run }, Fall für Fall
figure-timing-axis = Sekunden (logarithmische Skala)
figure-axis-log = { $label } (logarithmische Skala)
figure-scatter-title = { $y } gegen { $x }, Lauf { $run }
figure-history-title = { $field } von Fall { $case } über die Läufe von { $probe }
figure-history-needs-two-runs = Ein Verlauf von { $field } für Fall { $case } braucht zwei datierte Läufe von { $probe }, die den Wert aufzeichnen (ein Lauf ohne Datum hat keinen Platz in der Zeit); bisher { $count ->
    [one] gibt es einen
   *[other] gibt es { $count }
  }.

# Tabellen der Binär-Probes
run-none-yet = noch kein Lauf

## Probes
# Herkunft eines Laufs, von `evidence probe` in die Lauf-Datei geschrieben.
probe-origin = Aufgezeichnet mit `{ $command }` ({ $cases }).

# meta descriptions of the pages the site does not write
run-page-description = Lauf { $run } der Probe { $probe }: jeder Fall, was er maß und in welche Zone er fällt.
record-page-description = { $id } aus { $collection }: jedes seiner Felder, wie erfasst.
not-found-description = Unter dieser Adresse gibt es keine Seite; ein Link führt zurück zur Startseite.

history-label = Verlauf:
history-added = hinzugefügt am { $date }
history-moved-from-cannot = am { $date } von „nicht zeigbar“ zu „zeigbar“
history-moved-from-can = am { $date } von „zeigbar“ zu „nicht zeigbar“
history-by = durch
run-moved-claims = Aussagen, die dieser Lauf bewegt hat:
feed-title = { $site }: Änderungen der Belege
feed-run-added = Lauf { $run } aufgezeichnet
feed-claim-added = Aussage { $claim } hinzugefügt
feed-claim-moved-from-cannot = Aussage { $claim } von „nicht zeigbar“ zu „zeigbar“
feed-claim-moved-from-can = Aussage { $claim } von „zeigbar“ zu „nicht zeigbar“
feed-map-added = Entscheidungskarte { $map } hinzugefügt
feed-map-changed = Entscheidungskarte { $map } geändert
feed-map-removed = Entscheidungskarte { $map } entfernt

## Suche ($n und $m setzt static/search.js ein: keine Fluent-Variablen)
search-label = Suche
search-none = Keine Seite gefunden.
search-one = Eine Seite gefunden.
search-other = $n Seiten gefunden.
search-some = $n Seiten gefunden; die besten $m werden gezeigt.
search-error = Der Suchindex konnte nicht geladen werden.
search-elsewhere = Diese Suche ist in einer anderen Schrift geschrieben: in der Ansicht $v suchen.
