"""A vendor's family of products named by the family's name (issue 26, twenty-seventh round,
from the eighteenth blind set's development half): "GCP", "Google Cloud", "Microsoft 365",
"Google Workspace" name every integration of the family (products.FAMILIES), so a request
saying "which GCP projects" ranks the Google Cloud calls above Drive's permissions and
Asana's projects. Cases written for these tests."""

from __future__ import annotations

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.products import FAMILIES, Products
from skillgate.discovery.search import SearchIndex
from tests.skillgate.discovery.quality import first


def _products() -> Products:
    return Products({slug: i.name for slug, i in load_catalog().integrations.items()})


def test_a_familys_name_names_each_of_its_integrations() -> None:
    products = _products()
    cloud = set(FAMILIES["gcp"])
    assert products.of("which GCP projects can I see?") == cloud
    assert products.of("create a project on Google Cloud") == cloud
    assert "microsoft_entra" in products.of("who is in the Design group in Microsoft 365?")
    assert "google_admin" in products.of("suspend her Google Workspace account")
    # A product's own longer name still names that product alone.
    assert products.of("list the files in the backups bucket on Google Cloud Storage") == {
        "google_cloud_storage"
    }


def test_a_family_with_none_of_its_integrations_in_the_catalog_names_nothing() -> None:
    assert Products({"github": "GitHub"}).of("which GCP projects can I see?") == set()


def test_a_request_naming_a_family_ranks_its_calls_first(index: SearchIndex) -> None:
    # Each ranked another product's call first before (Gmail's untrash_message, Google
    # Drive's create_folder, Slack's list_users).
    asked = "someone deleted our gcp project billing-old by mistake, can we undelete it?"
    assert first(index, asked) == "google_cloud_projects/projects_undelete"
    asked = "make a folder for the finance team in our gcp org"
    assert first(index, asked) == "google_cloud_projects/folders_create"
    assert first(index, "everyone in our google workspace, please") == "google_admin/list_users"
