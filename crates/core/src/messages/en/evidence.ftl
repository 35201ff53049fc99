# UI strings and enum labels (English). Every key here must exist in each other language of a site (locales/<tag>/) too.

## Chrome
skip-to-content = Skip to content
views-label = Language view
# The language's own name, shown in the language switcher in that language.
language-name = English
nav-label = Pages
footer-grounded = Every table on this site is generated from recorded observations. A "cannot show" entry marks the limit of an observer, not a gap in effort.
not-found = This page does not exist.
back-home = Back to the home page.
value-unknown = unknown
page-revised = Revised

## Tables, shared
table-source = Source:
table-empty = No records.
col-id = ID
col-field = Field
col-value = Value
col-status = Status
col-refs = Evidence
col-source = Source
col-date = Date

## Claims
claims-caption = What this page can and cannot show
claims-can = Can show
claims-cannot = Cannot show
claims-evidence = Evidence:
claims-corrected-by = Corrected by a later finding:
claims-moved-from-cannot = Shown now; this was on the cannot-show side.
claims-moved-from-cannot-of = Shown now; this was on the cannot-show side of { $claim }.
claims-moved-from-can = No longer shown; this was on the can-show side.
claims-moved-from-can-of = No longer shown; this was on the can-show side of { $claim }.
claims-constraint = Limit of the observer:
claims-limit = Limit:

basis-source = from the source
basis-observed = observed
basis-inferred = our reading
basis-legend = What each statement rests on:
basis-legend-observed = recorded by this investigation (a run, a scan, a log).
basis-legend-source = read from the upstream file, commit or pull request linked with it.
basis-legend-inferred = an inference of this site, not stated by a record or a source.
claims-note = A "cannot show" entry is the limit of an observer, not a gap in effort.
ledger-caption = { $count ->
    [one] One claim pair
   *[other] { $count } claim pairs
  }

## Questions
questions-caption = Open and resolved questions
questions-question = Question
questions-evidence = Related evidence
questions-next = Where to look next:
questions-none = No questions.
question-status-open = open
question-status-resolved = resolved

## Bundles
col-role = Role

## Generations

## Components
components-caption = Components and what was observed of them
components-loaded-via = Loaded via
col-component = Component
col-observed = Observed
col-detail = Detail

## Observers
observers-caption = Observers and their status
col-observer = Observer
col-tried = What was tried
col-outcome = Outcome
col-showed = What it showed
col-constraint = What limits it
col-as-of = As of
outcome-distorts = distorts
outcome-blocked = blocked
outcome-partial = partial
outcome-works = works

## Worklog
worklog-caption = Worklog, phase by phase
col-phase = Phase
col-fixed = What was settled
col-questions = Questions left

## Dispatch
dispatch-otherwise = otherwise
dispatch-any = any value
dispatch-source = Read from:
dispatch-applies-to = Applies to:
col-condition = Condition
col-family = Family
col-anchor = Anchor
col-chain = Goes through
compare-caption = Decision maps compared over { $var }
compare-note = Highlighted rows, marked ≠, are the ranges where the maps disagree.
compare-differs = the maps differ here
col-range = { $var } range

## Runs
run-caption = Run
run-probe = Probe
run-engine = Engine
run-subject-other = Comparison run, subject:
run-note = Note:
run-subject = Subject:
run-note-as-written = as recorded, not translated
runs-subject-own = Subject of this investigation:
runs-subject-compared = A subject compared with:
run-conditions = Conditions:
latest-caption = Latest run of { $probe }:
runs-caption = Every probe run
runs-none = No runs recorded yet.
runs-latest = latest
runs-order-unknown = order unknown
run-nav-previous = Run before it:
run-nav-next = Run after it:
run-nav-index = All runs
run-order-unknown = This run or a run beside it has no date, so their order is unknown: neither is shown as the run before or after the other.
run-same-result-later = A later run read the same file and recorded the same result; its page shows the table:
run-same-result-earlier = An earlier run read the same file and recorded the same result:
col-zones = Cases per zone (assessed map)
runs-zones-open = { $count ->
    [one] 1 left open by its reading
   *[other] { $count } left open by their readings
}
runs-previous = Deltas compare with the previous run of the same probe, { $run }.
runs-zone-note = Zones are derived from each decision map, never typed by hand.
runs-zone-assessed = The map the investigator assessed against is outlined and marked “assessed”.
runs-zone-not-applicable = Maps that hold for other subjects give this run no zone: { $maps }.
zone-assessed = assessed
col-run = Run
col-probe = Probe
col-recorded = Recorded by
recorded-probe = probe
recorded-import = import
recorded-transcribed = transcribed
col-engine = Engine
col-cases = Cases
col-case = Case
col-derived-zone = Derived zone (per map)
col-reading = Recorded reading
col-delta = Δ since { $run }
engine-none = none (file read)
runs-delta-new = new case
runs-only-previous = Cases only in { $run }:
runs-zones-changed = Zones under { $map } that changed since { $run }:
runs-compare-caption = Compared with the previous run:
runs-compare-note = Each cell reads previous run ({ $run }) → this run. Repeated cases are compared by their median.
runs-compare-map = Zones are read under map { $map }.
runs-median-of = median of { $n }
col-zone-change = Derived zone

## Glossary, findings, quantization
glossary-caption = Glossary
col-term = Term
col-definition = Definition
findings-caption = Source-side findings
col-finding = Finding

## Figures
figure-enlarge = Open full size
figure-no-data = Nothing to plot yet: the run records no values for this figure.
figure-unreachable = (never reached)
figure-no-branches = This map has no branches.
figure-dispatch-title = Decision flow: { $map }
figure-diff-title = Where the decision maps differ, range by range
figure-diff-legend = ≠ marks a range the maps route differently; the outlined cell is the one that departs from the others.
figure-observers-title = What each observer tried and how it ended
figure-as-of = status as of { $date }
figure-chain-title = Chain of components and what was observed of each
figure-chain-side = Boxes on the right are loaded via the component they point from.
figure-chain-legend-loaded = dashed: { $statuses }
figure-chain-legend-binary = solid: { $statuses }
figure-chain-others = Not in the chain
figure-chain-none = No chain recorded yet: give components a `next` link in data/components.yaml.
figure-proxy-title = Cases of run { $run } along the map's variable, over the zones of the map “{ $map }”
figure-proxy-title-nomap = Cases of run { $run } along the map's variable (not assessed against any map)
figure-proxy-open = its recorded reading leaves the route open
figure-proxy-title-previous = Cases of run { $run } along the map's variable, over the zones of the map “{ $map }”, which run { $previous } before it was assessed against
figure-proxy-axis = the map's variable, as the run measured it (log scale)
figure-timing-title = Durations of run { $run }, case by case
figure-timing-axis = seconds (log scale)
figure-axis-log = { $label } (log scale)
figure-scatter-title = { $y } against { $x }, run { $run }
figure-history-title = { $field } of case { $case } across runs of { $probe }
figure-history-needs-two-runs = A history of { $field } for case { $case } needs two dated runs of { $probe } that record it (a run without a date has no place in time); so far { $count ->
    [one] one does
   *[other] { $count } do
  }.

# binary probe tables
run-none-yet = no run yet

## Probes
# A run's origin, written into the run file by `evidence probe`.
probe-origin = Recorded by `{ $command }` ({ $cases }).

# meta descriptions of the pages the site does not write
run-page-description = Probe run { $run } of the probe { $probe }: each case, what it measured and the zone it falls in.
record-page-description = { $id } of { $collection }: each of its fields as recorded.
not-found-description = No page lives at this address; a link back to the home page follows.

history-label = History:
history-added = added on { $date }
history-moved-from-cannot = moved from cannot-show to can-show on { $date }
history-moved-from-can = moved from can-show to cannot-show on { $date }
history-by = by
run-moved-claims = Claims this run moved:
feed-title = { $site }: evidence changes
feed-run-added = Run { $run } recorded
feed-claim-added = Claim { $claim } added
feed-claim-moved-from-cannot = Claim { $claim } moved from cannot-show to can-show
feed-claim-moved-from-can = Claim { $claim } moved from can-show to cannot-show
feed-map-added = Decision map { $map } added
feed-map-changed = Decision map { $map } changed
feed-map-removed = Decision map { $map } removed

## Search (static/search.js fills in $n and $m: they are not Fluent variables)
search-label = Search
search-none = No page found.
search-one = One page found.
search-other = $n pages found.
search-some = $n pages found; the best $m are shown.
search-error = The search index could not be loaded.
search-elsewhere = This query is written in another script: search it in the $v view.
