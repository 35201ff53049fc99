# Messages of the `ggml` pack: its tables, engines and statuses. Loaded as the
# built-in locales/en/ggml.ftl when a site turns the pack on; a site file may redefine any.

col-note = Note
bundles-caption = Code object bundles
bundles-caption-arch = Code object bundles for { $arch }
col-bundle = Bundle
col-size = Size
col-symbols = Key symbols
col-route = Path
col-built-for = Built for
col-registers = Registers and counts
generations-caption = GPU generations and fatbin targets
generations-relabelled = The original page labelled { $gfx } “{ $label }”; the table follows AMD's own naming, { $generation }.
col-generation = Generation
col-gfx = Target
col-fatbin-targets = In the fatbin
col-custom-kernels = Custom kernels
col-implication = What it implies
target-found = found
target-not-found = not found
target-not-scanned = not scanned
tensor-types-caption = Tensor types and the families with an entry for them
tensor-types-families-from = Families as the source switches list them:
col-tensor-type = Tensor type
col-ggml-id = ggml id
col-families = Families
file-types-caption = File-type labels and the tensor types they mix
col-file-type = File type
col-mixes = Tensor types inside
layers-caption = Layers of the general map
col-layer = Layer
plan-caption = Order in which the map is broadened
col-order = Step
col-target = Target
col-reason = Why
binary-input = file
binary-package = package
binary-no-run = No `{ $probe }` run yet: run `evidence probe { $probe } FILE`.
binary-unclassified = unclassified
binary-type-unrecorded = not in quantization.yaml
fatbin-targets-caption = gfx targets in the latest fatbin probe run
fatbin-targets-caption-run = gfx targets in this fatbin probe run
tensor-mix-caption = Tensor types in the latest gguf probe run
tensor-mix-caption-run = Tensor types in this gguf probe run
col-bundles = Bundles
col-code-object-version = Code object
col-kernels = Kernels
col-kernels-per-family = Kernels per family
col-sgpr = SGPR
col-vgpr = VGPR
col-tensors = Tensors
col-bytes = Bytes
col-example-tensors = Example tensors
col-latest-fatbin = Latest fatbin run
col-latest-maps = Latest maps run
run-found = found
run-not-found = not found
run-mapped = mapped
run-not-mapped = not mapped

# run origins written by the binary probes and the import
probe-origin-file = Recorded by `{ $command }` reading `{ $file }`.
probe-origin-import = Responses captured elsewhere and recorded by `evidence import ollama` ({ $files }). How the prompt cache was kept out is not on record.

# engine probe runs: the measurements the probes write, by their labels, and the notes under a run
measure-total = total
measure-load = load
measure-prompt-eval = prompt eval
measure-eval = eval
measure-num-predict = num_predict
measure-prompt-eval-count = prompt_eval_count
measure-eval-count = eval_count
run-model-details = Model:
run-model-file = file
run-tensor-types = tensor types
run-loaded = In VRAM (size_vram / size):
run-request = Request:
run-cache-defeat = Prompt cache kept out by:
run-sweep = Prompt-token sweep
run-sweep-hits = { $hits } targets hit exactly
cache-defeat-nonce = unique nonce before the prompt
cache-defeat-cold-start = cold start (unloaded first)
cache-defeat-cache-prompt-off = cache_prompt: false
cache-defeat-unknown = not recorded

# What an engine run served and how each case found the model: the run note, the
# runs index and the run table.
run-model = Model
run-endpoint = Endpoint
col-model = Model
col-mode = Mode
residency-cold = cold
residency-hot = hot
