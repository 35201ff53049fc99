__evidenceSearch("ja/meta",{"v":1,"shards":4,"chunk":8,"docs":14});
