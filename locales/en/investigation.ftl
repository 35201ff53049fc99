# The investigation's own words for built-in messages (the built-in ones, in
# src/messages/, are neutral): a site's .ftl files may redefine any built-in message.

components-caption = ROCm components and what was observed of them
col-observed = Observed (Phase C)
col-family = Kernel family
col-anchor = Bundle anchor
figure-chain-legend-loaded = dashed: only seen loaded (present in the process maps)
figure-chain-legend-binary = solid: its binary or hsaco was confirmed as well
figure-proxy-title = Cases of run { $run } on the ne11 axis, over the zones of the map “{ $map }”
figure-proxy-title-nomap = Cases of run { $run } on the ne11 axis (not assessed against any map)
figure-proxy-title-previous = Cases of run { $run } on the ne11 axis, over the zones of the map “{ $map }”, which run { $previous } before it was assessed against
col-built-for = Built for ne11
findings-caption-split-mode = Source-side findings: the split mode
tensor-types-caption = Tensor types and the kernel families with an entry for them
col-families = Kernel families
# The dispatch words of this investigation where the theme speaks of decisions in general.
col-chain = Library chain
compare-caption = Dispatch maps compared over { $var }
runs-zone-note = Zones are derived from each dispatch map, never typed by hand.
figure-dispatch-title = Dispatch flow: { $map }
figure-diff-title = Where the dispatch maps differ, range by range
figure-chain-title = Library chain and what was observed of each component
figure-chain-side = Boxes on the right are loaded via the library they point from.

# The built-in English wording, kept as the site's own: the Japanese file redefines these,
# and every language of the site redefines a message or none does.
basis-legend-observed = recorded by this investigation (a run, a scan, a log).
