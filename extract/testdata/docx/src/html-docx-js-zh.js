const fs = require('fs');
const htmlDocx = require('html-docx-js');
const html = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><h1>第一章 绪论</h1><p>随着互联网技术的快速发展，网络教育已经成为高等教育的重要组成部分，越来越多的高校开始建设在线课程平台。</p><p>Our own words about the survey.</p></body></html>';
const blob = htmlDocx.asBlob(html);
blob.arrayBuffer().then(b => fs.writeFileSync('html-docx-js-zh.docx', Buffer.from(b)));
