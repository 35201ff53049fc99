# Messages of the `ggml` pack: its tables, engines and statuses. Loaded as the
# built-in locales/ja/ggml.ftl when a site turns the pack on; a site file may redefine any.

col-note = 注記
bundles-caption = コードオブジェクトのバンドル
bundles-caption-arch = { $arch } 向けのコードオブジェクトのバンドル
col-bundle = バンドル
col-size = サイズ
col-symbols = 主なシンボル
col-route = 経路
col-built-for = 対応する範囲
col-registers = レジスタと命令数
generations-caption = GPU 世代と fatbin 内のターゲット
generations-relabelled = 元のページは { $gfx } を「{ $label }」と表記していた。表は AMD 自身の呼び名 ({ $generation }) に従う。
col-generation = 世代
col-gfx = ターゲット
col-fatbin-targets = fatbin 内
col-custom-kernels = 独自カーネル
col-implication = 意味すること
target-found = 確認済み
target-not-found = 未検出
target-not-scanned = 未スキャン
tensor-types-caption = テンソル型と、それを受け付ける系統
tensor-types-families-from = 系統はソースの switch にある case から読んだ:
col-tensor-type = テンソル型
col-ggml-id = ggml の型番号
col-families = 系統
file-types-caption = ファイル型のラベルと、中に混ざるテンソル型
col-file-type = ファイル型
col-mixes = 含まれるテンソル型
layers-caption = 一般的な地図の層
col-layer = 層
plan-caption = 地図を広げる順序
col-order = 段階
col-target = 対象
col-reason = 理由
binary-input = ファイル
binary-package = パッケージ
binary-no-run = `{ $probe }` の実行はまだない。`evidence probe { $probe } FILE` を実行すると記録される。
binary-unclassified = 未分類
binary-type-unrecorded = quantization.yaml に未記録
fatbin-targets-caption = 最新の fatbin プローブ実行が見つけた gfx ターゲット
fatbin-targets-caption-run = この fatbin プローブの実行に含まれる gfx ターゲット
tensor-mix-caption = 最新の gguf プローブ実行が見つけたテンソル型
tensor-mix-caption-run = この gguf プローブの実行に含まれるテンソル型
col-bundles = バンドル
col-code-object-version = コードオブジェクト
col-kernels = カーネル
col-kernels-per-family = 系統別カーネル数
col-sgpr = SGPR
col-vgpr = VGPR
col-tensors = テンソル数
col-bytes = バイト数
col-example-tensors = テンソルの例
col-latest-fatbin = 最新の fatbin 実行
col-latest-maps = 最新の maps 実行
run-found = あり
run-not-found = なし
run-mapped = マップ済み
run-not-mapped = マップなし

# バイナリ読み取りと取り込みが書く実行の出自
probe-origin-file = `{ $command }` で `{ $file }` を読んで記録した実行。
probe-origin-import = `evidence import ollama` で取り込んだ、別の場所で保存された応答 ({ $files })。キャッシュをどう避けたかは記録にない。

# engine probe runs: the measurements the probes write, by their labels, and the notes under a run
measure-total = 合計
measure-load = ロード
measure-prompt-eval = プロンプト処理
measure-eval = 生成
measure-num-predict = num_predict
measure-prompt-eval-count = prompt_eval_count
measure-eval-count = eval_count
run-model-details = モデル:
run-model-file = ファイル
run-tensor-types = テンソル型の内訳
run-loaded = VRAM 上 (size_vram / size):
run-request = リクエスト:
run-cache-defeat = プロンプトキャッシュの回避:
run-sweep = プロンプトのトークン数のスイープ
run-sweep-hits = 目標値に一致したのは { $hits }
cache-defeat-nonce = プロンプトの前に一意なナンス
cache-defeat-cold-start = コールドスタート (先にアンロード)
cache-defeat-cache-prompt-off = cache_prompt: false
cache-defeat-unknown = 記録なし

# エンジンの実行が何を提供したか、各ケースがモデルをどう見つけたか。
run-model = モデル
run-endpoint = エンドポイント
col-model = モデル
col-mode = 状態
residency-cold = コールド
residency-hot = ホット (常駐)
