__evidenceSearch("ja/meta",{"v":1,"shards":8,"chunk":8,"docs":16});
