__evidenceSearch("en/meta",{"v":1,"shards":1,"chunk":8,"docs":16});
