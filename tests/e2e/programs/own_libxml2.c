/* A program that uses libxml2 itself (the library hcc's CUBE writer uses):
   parses a document, prints what it found, and calls xmlCleanupParser before
   it exits, as libxml2's documentation asks. Built plain and through hcc, it
   prints the same, and hcc still writes its profile afterwards. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <string.h>

static const char kDoc[] =
    "<?xml version=\"1.0\"?>\n"
    "<inventory><item id=\"a\" qty=\"3\">bolt</item><item id=\"b\" qty=\"5\">nut</item>"
    "<item id=\"c\" qty=\"7\">washer</item></inventory>";

static int count_item(xmlNode *n) {
  xmlChar *qty = xmlGetProp(n, (const xmlChar *)"qty");
  xmlChar *text = xmlNodeGetContent(n);
  int q = 0;
  sscanf((const char *)qty, "%d", &q);
  printf("%s x%d\n", (const char *)text, q);
  xmlFree(qty);
  xmlFree(text);
  return q;
}

static int walk(xmlNode *root) {
  int total = 0;
  for (xmlNode *n = root->children; n; n = n->next)
    if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "item") == 0) total += count_item(n);
  return total;
}

int main(void) {
  LIBXML_TEST_VERSION
  xmlDoc *doc = xmlReadMemory(kDoc, (int)sizeof kDoc - 1, "inventory.xml", NULL, XML_PARSE_NONET);
  if (!doc) return 1;
  int total = walk(xmlDocGetRootElement(doc));
  printf("total %d\n", total);
  xmlFreeDoc(doc);
  xmlCleanupParser();
  return total == 15 ? 0 : 2;
}
