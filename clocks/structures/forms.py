"""The structure pages' forms: the JSON import (its content the API's StructureIn checks)."""

from django import forms
from django.utils.translation import gettext_lazy as _

MAX_IMPORT_BYTES = 256 * 1024


class StructureImportForm(forms.Form):
    """A pasted structure (the uploaded file is checked by size in the view)."""

    text = forms.CharField(
        required=False,
        strip=False,
        max_length=MAX_IMPORT_BYTES,
        error_messages={"max_length": _("The file is too large for a blind structure.")},
    )
