# 組み込みの文言 (src/messages/ にあり、どの調査にも使える言い方) を、この調査の
# 言葉で置き換える。サイトの .ftl は組み込みのどのメッセージも定義し直せる。

components-caption = ROCm コンポーネントと観測された状態
col-observed = 観測 (Phase C)
col-family = カーネル系統
col-anchor = アンカーとなるバンドル
figure-chain-legend-loaded = 破線:ロードされたこと (プロセスの maps に現れたこと) だけを確認
figure-chain-legend-binary = 実線:バイナリや hsaco まで確認
figure-proxy-title = 実行 { $run } の各ケースを ne11 の軸に置き、地図「{ $map }」の範囲と重ねた図
figure-proxy-title-nomap = 実行 { $run } の各ケースを ne11 の軸に置いた図 (照合した地図なし)
figure-proxy-title-previous = 実行 { $run } の各ケースを ne11 の軸に置き、直前の実行 { $previous } が照合した地図「{ $map }」の範囲と重ねた図
findings-caption-split-mode = ソース側の知見:分割モード
col-built-for = 対応する ne11
tensor-types-caption = テンソル型と、それを受け付けるカーネル系統
col-families = カーネル系統
# The dispatch words of this investigation where the theme speaks of decisions in general.
col-chain = ライブラリの連鎖
compare-caption = { $var } の範囲で比べたディスパッチ地図
runs-zone-note = 範囲は各ディスパッチ地図から導出しており、手で書き込んではいない。
figure-dispatch-title = ディスパッチの流れ:{ $map }
figure-diff-title = ディスパッチ地図どうしの食い違い(範囲ごと)
figure-chain-title = ライブラリの連鎖と、各コンポーネントで観測できたこと
figure-chain-side = 右側の箱は、矢印の根元にあるライブラリ経由でロードされる。
# 組み込みの文言は「走査」と書くが、この調査の用語集は「スキャン」と書く。
basis-legend-observed = この調査の記録(実行・スキャン・ログ)に基づく。
