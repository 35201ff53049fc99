# Texte des `ggml`-Packs: seine Tabellen, Engines und Status. Als eingebaute
# locales/de/ggml.ftl geladen, wenn eine Website das Pack aktiviert; eine Datei der Website kann jeden Text neu definieren.

col-note = Anmerkung
bundles-caption = Code-Object-Bundles
bundles-caption-arch = Code-Object-Bundles für { $arch }
col-bundle = Bundle
col-size = Größe
col-symbols = Wichtige Symbole
col-route = Pfad
col-built-for = Gebaut für
col-registers = Register und Zählwerte
generations-caption = GPU-Generationen und fatbin-Targets
generations-relabelled = Die ursprüngliche Seite bezeichnete { $gfx } als „{ $label }“; die Tabelle folgt AMDs eigener Benennung, { $generation }.
col-generation = Generation
col-gfx = Target
col-fatbin-targets = Im fatbin
col-custom-kernels = Eigene Kernel
col-implication = Was daraus folgt
target-found = gefunden
target-not-found = nicht gefunden
target-not-scanned = nicht durchsucht
tensor-types-caption = Tensortypen und die Familien mit einem Eintrag dafür
tensor-types-families-from = Familien, wie die switch-Anweisungen im Quelltext sie aufführen:
col-tensor-type = Tensortyp
col-ggml-id = ggml-ID
col-families = Familien
file-types-caption = Dateityp-Bezeichnungen und die darin gemischten Tensortypen
col-file-type = Dateityp
col-mixes = Enthaltene Tensortypen
layers-caption = Schichten der allgemeinen Karte
col-layer = Schicht
plan-caption = Reihenfolge, in der die Karte erweitert wird
col-order = Schritt
col-target = Ziel
col-reason = Grund
binary-input = Datei
binary-package = Paket
binary-no-run = Noch kein Lauf von `{ $probe }`: `evidence probe { $probe } FILE` ausführen.
binary-unclassified = nicht klassifiziert
binary-type-unrecorded = nicht in quantization.yaml
fatbin-targets-caption = gfx-Targets im neuesten Lauf der fatbin-Probe
fatbin-targets-caption-run = gfx-Targets in diesem fatbin-Probe-Lauf
tensor-mix-caption = Tensortypen im neuesten Lauf der gguf-Probe
tensor-mix-caption-run = Tensortypen in diesem gguf-Probe-Lauf
col-bundles = Bundles
col-code-object-version = Code-Object
col-kernels = Kernel
col-kernels-per-family = Kernel je Familie
col-sgpr = SGPR
col-vgpr = VGPR
col-tensors = Tensoren
col-bytes = Bytes
col-example-tensors = Beispieltensoren
col-latest-fatbin = Neuester fatbin-Lauf
col-latest-maps = Neuester maps-Lauf
run-found = gefunden
run-not-found = nicht gefunden
run-mapped = gemappt
run-not-mapped = nicht gemappt

# Herkunft eines Laufs, von den Binär-Probes und vom Import geschrieben
probe-origin-file = Aufgezeichnet mit `{ $command }` beim Lesen von `{ $file }`.
probe-origin-import = Anderswo erfasste Antworten, aufgezeichnet mit `evidence import ollama` ({ $files }). Wie der Prompt-Cache umgangen wurde, ist nicht festgehalten.

# engine probe runs: the measurements the probes write, by their labels, and the notes under a run
measure-total = gesamt
measure-load = Laden
measure-prompt-eval = Prompt-Verarbeitung
measure-eval = Generierung
measure-num-predict = num_predict
measure-prompt-eval-count = prompt_eval_count
measure-eval-count = eval_count
run-model-details = Modell:
run-model-file = Datei
run-tensor-types = Tensortypen
run-loaded = Im VRAM (size_vram / size):
run-request = Anfrage:
run-cache-defeat = Prompt-Cache umgangen durch:
run-sweep = Prompt-Token-Sweep
run-sweep-hits = { $hits } Zielwerte genau getroffen
cache-defeat-nonce = eindeutige Nonce vor dem Prompt
cache-defeat-cold-start = Kaltstart (vorher entladen)
cache-defeat-cache-prompt-off = cache_prompt: false
cache-defeat-unknown = nicht aufgezeichnet

# Was ein Engine-Lauf bediente und wie jeder Fall das Modell vorfand.
run-model = Modell
run-endpoint = Endpunkt
col-model = Modell
col-mode = Modus
residency-cold = kalt
residency-hot = warm (geladen)
