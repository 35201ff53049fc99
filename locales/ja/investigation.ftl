# 組み込みの文言 (theme/locales/ にあり、どの調査にも使える言い方) を、この調査の
# 言葉で置き換える。サイトの .ftl は組み込みのどのメッセージも定義し直せる。

components-caption = ROCm コンポーネントと観測された状態
col-observed = 観測 (Phase C)
col-family = kernel family
col-anchor = bundle アンカー
figure-chain-legend-binary = 実線: binary や hsaco まで確認
figure-proxy-title = 実行 { $run } の各ケースを ne11 の軸に置き、{ $map } の範囲と重ねた図
figure-proxy-title-nomap = 実行 { $run } の各ケースを ne11 の軸に置いた図 (照合した地図なし)
figure-proxy-axis = プロンプトのトークン数 ≈ ne11 (対数軸)
col-observed-range = 観測した ne11
tensor-types-caption = tensor type と、それに entry を持つ kernel family
col-families = kernel family
