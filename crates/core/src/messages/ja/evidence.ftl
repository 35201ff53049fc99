# UI 文字列と列挙値のラベル(日本語)。ここにある key はサイトの他の言語 (locales/<tag>/) にも必要。

## 画面の枠
skip-to-content = 本文へ移動
views-label = 言語の表示
# この言語の自称。言語の切り替えに、その言語のまま表示する。
language-name = 日本語
nav-label = ページ一覧
footer-grounded = このサイトの表はすべて観測記録から生成している。「示せないこと」は観測手段の限界であって、調べ残しではない。
not-found = このページは存在しない。
back-home = トップページへ戻る。
value-unknown = 不明
page-revised = 更新日

## 表(共通)
table-source = 出典:
table-empty = 記録なし。
col-id = ID
col-field = 項目
col-value = 値
col-status = 状態
col-refs = 証拠
col-source = 出典
col-date = 日付

## 主張
claims-caption = このページで示せること・示せないこと
claims-can = 示せること
claims-cannot = 示せないこと
claims-evidence = 証拠:
claims-corrected-by = 後の知見による訂正:
claims-moved-from-cannot = 以前は「示せないこと」の側にあり、いまは示せる。
claims-moved-from-cannot-of = 以前は { $claim } の「示せないこと」の側にあり、いまは示せる。
claims-moved-from-can = 以前は「示せること」の側にあり、いまは示せない。
claims-moved-from-can-of = 以前は { $claim } の「示せること」の側にあり、いまは示せない。
claims-constraint = 観測手段の限界:
claims-limit = 限界:

basis-source = ソースから
basis-observed = 観測
basis-inferred = この調査の読み
basis-legend = 各記述の根拠:
basis-legend-observed = この調査の記録(実行・走査・ログ)に基づく。
basis-legend-source = 併記したリンク先のファイル・コミット・プルリクエストから読んだ。
basis-legend-inferred = 記録や出典が直接述べていない、このサイトの推論。
claims-note = 「示せないこと」は観測手段の限界を表し、調査不足を意味するものではない。
ledger-caption = 主張の組 { $count } 件

## 未解決の問い
questions-caption = 未解決・解決済みの問い
questions-question = 問い
questions-evidence = 関わる証拠
questions-next = 次に調べること:
questions-none = 問いはない。
question-status-open = 未解決
question-status-resolved = 解決済み

## bundle
col-role = 役割

## 世代

## コンポーネント
components-caption = コンポーネントと観測された状態
components-loaded-via = ロード元:
col-component = コンポーネント
col-observed = 観測
col-detail = 詳細

## 観測手段
observers-caption = 観測手段とその状態
col-observer = 観測手段
col-tried = 試したこと
col-outcome = 結果
col-showed = 見えたこと
col-constraint = 制約
col-as-of = 時点
outcome-distorts = 対象を乱す
outcome-blocked = 拒否された
outcome-partial = 一部だけ見える
outcome-works = 使える

## 作業ログ
worklog-caption = フェーズごとの作業ログ
col-phase = フェーズ
col-fixed = 確定したこと
col-questions = 残った問い

## dispatch
dispatch-otherwise = それ以外
dispatch-any = すべての値
dispatch-source = 出典:
dispatch-applies-to = 適用範囲:
col-condition = 条件
col-family = 系統
col-anchor = アンカー
col-chain = 経由するもの
compare-caption = { $var } ごとに見た判断の地図の比較
compare-note = 強調し ≠ を付けた行は、地図どうしで判断が食い違う範囲。
compare-differs = 地図どうしで判断が異なる
col-range = { $var } の範囲

## 実行記録
run-caption = 実行記録
run-probe = プローブ
run-engine = エンジン
run-subject-other = 比較用の実行。対象:
run-note = メモ:
run-subject = 対象:
run-note-as-written = 記録したままの文で、翻訳していない
runs-subject-own = この調査の対象:
runs-subject-compared = 比較に使った対象:
run-conditions = 実行条件:
latest-caption = { $probe } の最新の実行:
runs-caption = すべてのプローブ実行
runs-none = 実行記録はまだない。
runs-latest = 最新
runs-order-unknown = 前後不明
run-nav-previous = 一つ前の実行:
run-nav-next = 一つ後の実行:
run-nav-index = すべての実行
run-order-unknown = 日付のない実行があるため、同じプローブのほかの実行との前後関係は分からない。どの実行も前後として示していない。
run-same-result-later = 後の実行が同じファイルを読み、同じ結果を記録した。表はその実行のページにある:
run-same-result-earlier = 前の実行も同じファイルを読み、同じ結果を記録している:
col-zones = 範囲ごとのケース数 (照合した地図)
runs-zones-open = 読みでは未決 { $count }
runs-previous = 差分は、同じプローブの一つ前の実行 { $run } と比べたもの。
runs-zone-note = 範囲は各判断の地図から導出しており、手で書き込んではいない。
runs-zone-assessed = 調査者が照合に使った地図は枠で囲み「照合」と記す。
runs-zone-not-applicable = 別の対象についての地図は、この実行に範囲を与えない: { $maps }
zone-assessed = 照合
col-run = 実行
col-probe = プローブ
col-recorded = 記録の方法
recorded-probe = プローブ
recorded-import = 取り込み
recorded-transcribed = 書き写し
col-engine = エンジン
col-cases = ケース数
col-case = ケース
col-derived-zone = 導出した範囲 (地図ごと)
col-reading = 記録された読み
col-delta = { $run } からの差分
engine-none = なし (ファイル読み取り)
runs-delta-new = 新しいケース
runs-only-previous = { $run } にだけあるケース:
runs-zones-changed = { $run } から { $map } の下で範囲が変わったケース:
runs-compare-caption = 一つ前の実行との比較:
runs-compare-note = 各欄は「一つ前の実行 ({ $run }) → この実行」の順。繰り返したケースは中央値で比べる。
runs-compare-map = 範囲は地図 { $map } に基づいて読んでいる。
runs-median-of = { $n } 回の中央値
col-zone-change = 導出した範囲

## 用語・知見・量子化
glossary-caption = 用語集
col-term = 用語
col-definition = 定義
findings-caption = ソース側の知見
col-finding = 知見

## 図
figure-enlarge = 拡大して表示
figure-no-data = まだ描ける値がない。この実行には図に使う値の記録がない。
figure-unreachable = (到達しない)
figure-no-branches = この地図には分岐がない。
figure-dispatch-title = 判断の流れ:{ $map }
figure-diff-title = 判断の地図どうしの食い違い(範囲ごと)
figure-diff-legend = ≠ は地図によって行き先が分かれる範囲。枠で囲んだセルが、ほかと異なる行き先を示す地図。
figure-observers-title = 各観測手段で試したことと、その結末
figure-as-of = { $date } 時点の状態
figure-chain-title = コンポーネントの連鎖と、それぞれで観測できたこと
figure-chain-side = 右側の箱は、矢印の根元にあるコンポーネント経由で読み込まれる。
figure-chain-legend-loaded = 破線: { $statuses }
figure-chain-legend-binary = 実線: { $statuses }
figure-chain-others = 連鎖に入らないもの
figure-chain-none = 連鎖はまだ記録されていない。data/components.yaml の各コンポーネントに `next` を書くと描ける。
figure-proxy-title = 実行 { $run } の各ケースを地図の変数の軸に置き、地図「{ $map }」の範囲と重ねた図
figure-proxy-title-nomap = 実行 { $run } の各ケースを地図の変数の軸に置いた図 (照合した地図なし)
figure-proxy-open = 記録された読みでは経路は未決
figure-proxy-title-previous = 実行 { $run } の各ケースを地図の変数の軸に置き、直前の実行 { $previous } が照合した地図「{ $map }」の範囲と重ねた図
figure-proxy-axis = 実行が測った地図の変数 (対数軸)
figure-timing-title = 実行 { $run } の所要時間 (ケースごと)
figure-timing-axis = 秒 (対数軸)
figure-axis-log = { $label } (対数軸)
figure-scatter-title = { $x } に対する { $y } (実行 { $run })
figure-history-title = 実行をまたいだケース { $case } の { $field } ({ $probe })
figure-history-needs-two-runs = ケース { $case } の { $field } の推移を描くには、それを記録した { $probe } の日付のある実行が二つ必要 (日付のない実行は時間の上に置けない)。いまは { $count } 件。

# binary probe tables
run-none-yet = 実行なし

## プローブ
# 実行の出自。`evidence probe` が実行ファイルに書き込む。
probe-origin = `{ $command }` で記録した実行 ({ $cases })。

# meta descriptions of the pages the site does not write
run-page-description = プローブ { $probe } の実行 { $run }: 各ケースの測定値と、それが入る区分。
record-page-description = { $collection } の { $id }: 記録された各項目。
not-found-description = このアドレスにページはない。ホームへ戻るリンクを置いてある。

history-label = 経緯:
history-added = { $date } に追加
history-moved-from-cannot = { $date } に「示せないこと」から「示せること」へ
history-moved-from-can = { $date } に「示せること」から「示せないこと」へ
history-by = 根拠:
run-moved-claims = この実行で動いた主張:
feed-title = { $site }: 証拠の変化
feed-run-added = 実行 { $run } を記録
feed-claim-added = 主張 { $claim } を追加
feed-claim-moved-from-cannot = 主張 { $claim } が「示せないこと」から「示せること」へ
feed-claim-moved-from-can = 主張 { $claim } が「示せること」から「示せないこと」へ
feed-map-added = 判断の地図 { $map } を追加
feed-map-changed = 判断の地図 { $map } を変更
feed-map-removed = 判断の地図 { $map } を削除

## 検索 ($n と $m は static/search.js が埋める。Fluent の変数ではない)
search-label = 検索
search-none = 該当するページはない。
search-one = 1 ページが見つかった。
search-other = $n ページが見つかった。
search-some = $n ページが見つかった。上位 $m ページを表示する。
search-error = 検索の索引を読み込めなかった。
search-elsewhere = この語は別の文字で書かれている。$v の表示で検索する。
